"""Problems: the model of problem.toml, the loader, distributions, tolerances and the validator."""
