"""Events (tournaments and club nights): their entries, rounds and pairings, who may see and change
them, and the format registry."""
