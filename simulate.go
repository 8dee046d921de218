package main

import "errors"

func simulate(args []string) error { return errors.New("not wired yet") }
