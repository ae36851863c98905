"""Public-sector services: permits, volunteering and other civic programs."""
