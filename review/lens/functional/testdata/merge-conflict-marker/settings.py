<<<<<<< HEAD  # want "Unresolved merge conflict"
TIMEOUT = 30
=======
TIMEOUT = 60
>>>>>>> feature/timeouts

# Strings and comments that only look like markers are fine.
SEPARATOR = "======="
print(">>>>>>>")
