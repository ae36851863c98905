"""Marketing: ads, e-mail campaigns, nurture, links, social posts, events, webinars, forms, surveys, content and analytics."""
