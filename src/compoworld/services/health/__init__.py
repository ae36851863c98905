"""Healthcare: clinics and pharmacies."""
