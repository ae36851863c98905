"""Finance: invoicing, ledgers, tax, banking, billing, payments, payouts, cards, expenses, procurement, fundraising and insurance."""
