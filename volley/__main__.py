"""`python -m volley`: the same command as the `volley` console script."""

from volley.cli import run

if __name__ == "__main__":
    run()
