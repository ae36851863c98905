"""Commerce: shops, marketplaces, point of sale, inventory, warehouses, shipping, delivery and freight."""
