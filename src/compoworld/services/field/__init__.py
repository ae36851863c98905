"""Energy, utilities, facilities and field-work services."""
