"""Legal: contracts, matters and e-signatures."""
