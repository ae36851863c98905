"""Media: the home company's video channels, their uploads, playlists, captions, comments and subscribers."""
