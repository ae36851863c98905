"""Places and travel: trips, flights, hotels, restaurants, rides, maps, fleets, real estate and smart homes."""
