"""Productivity: calendars and booking pages, documents, notes, wikis, file storage, project tracking and time tracking."""
