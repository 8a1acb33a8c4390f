"""What the platform does with a test case at run time: matchers, deterministic metrics,
metric precedence (the table of vectors they are held to: docs/explain.md)."""
