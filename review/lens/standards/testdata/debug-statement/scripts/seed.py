# Near miss: scripts print by design.
print("seeding")
