"""Open-world information: web search, news, encyclopedia, company data, translation, weather, exchange rates, stock quotes and public holidays."""
