"""Live pages and the projector."""
