package retry

// TODO: honour the context deadline. want "TODO added"
func Do(f func() error) error {
	err := f() // FIXME(ana): retry on timeout want "FIXME added"
	/*
	 * XXX this swallows partial writes want "XXX added"
	 */
	msg := "TODO: this is a string, not a comment"
	_ = msg
	// The TODO list lives in the tracker.
	// Use MAX_TODO_ITEMS for the limit.
	return err
}

func other() {
	// Call it later (TODO: after the migration) want "TODO added"
}
