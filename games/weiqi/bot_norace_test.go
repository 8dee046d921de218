//go:build !race

package weiqi

// raceBuild is true under -race, where playouts run about 20 times slower.
const raceBuild = false
