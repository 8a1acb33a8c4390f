"""The command line: arguments, discovery, the runner and its exit codes, editor set-up."""
