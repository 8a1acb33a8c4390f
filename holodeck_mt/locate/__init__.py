"""Each fault placed at its line and worded as written, once per file: the report, the
locator, the cascade of faults one mistake sets off, and the file's suppressions."""
