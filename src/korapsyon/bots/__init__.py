"""Players that are not people: agents choose an action from the choices they are offered."""
