"""Rom: Rise to Power -- power-dice placement, senate cards, provinces, arena and scoring."""
