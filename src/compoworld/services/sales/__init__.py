"""Sales: CRMs and the deal pipeline."""
