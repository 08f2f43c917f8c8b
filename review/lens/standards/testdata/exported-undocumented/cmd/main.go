package main

func Run() {}

func main() { Run() }
