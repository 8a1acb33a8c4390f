"""The command line: arguments, the runner and its exit codes, the cache, editor set-up."""
