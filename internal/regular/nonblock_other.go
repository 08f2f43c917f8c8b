//go:build !unix

package regular

// nonBlock is 0 where opens do not block on special files.
const nonBlock = 0
