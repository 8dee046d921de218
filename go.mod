module github.com/chaguan/chaguan

go 1.26
