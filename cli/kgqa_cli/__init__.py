"""The `kgqa` command line: a thin client of the kgqa library."""
