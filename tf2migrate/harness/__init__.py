"""The runtime harness behind `tf2migrate verify`: imported only by that command."""
