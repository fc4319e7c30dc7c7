"""The event formats behind one interface: round robin, knockout, Swiss, groups then a knockout,
and club nights."""
