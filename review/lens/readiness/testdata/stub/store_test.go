package store

// Near miss: a test double's stub.
type fake struct{}

func (fake) Delete(string) error { panic("not implemented") }
