"""`python -m tf2migrate` is the same as the `tf2migrate` command."""
from tf2migrate.cli.app import main

if __name__ == "__main__":
    main()
