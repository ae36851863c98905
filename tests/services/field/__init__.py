"""Tests of the energy, utilities, facilities and field-work services."""
