package api

func Helper() {}
