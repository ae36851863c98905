"""Customer support and IT service: help desks, service desks, live chat and knowledge bases."""
