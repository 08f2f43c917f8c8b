package schemas

import (
	"errors"
	"fmt"
)

// format is a "format" the validator asserts (format assertions are on).
// It applies to strings only; other types pass.
type format struct {
	name  string
	check func(string) error
}

// formats are the supported formats by name.
var formats = map[string]*format{
	"date-time": {"date-time", checkDateTime},
}

// checkDateTime accepts an RFC 3339 date-time (section 5.6):
// yyyy-mm-ddThh:mm:ss[.frac](Z|±hh:mm) with a real calendar date, the T
// and Z in either case, and a leap second only at 23:59:60 UTC.
func checkDateTime(s string) error {
	// yyyy-mm-ddThh:mm:ssZ is the shortest.
	if len(s) < 20 {
		return errors.New("less than 20 characters long")
	}
	if s[10] != 'T' && s[10] != 't' {
		return errors.New("11th character must be t or T")
	}
	if err := checkDate(s[:10]); err != nil {
		return fmt.Errorf("invalid date element: %w", err)
	}
	if err := checkTime(s[11:]); err != nil {
		return fmt.Errorf("invalid time element: %w", err)
	}
	return nil
}

// checkDate accepts yyyy-mm-dd naming a day of the proleptic Gregorian
// calendar.
func checkDate(s string) error {
	y, okY := digits(s, 0, 4)
	m, okM := digits(s, 5, 2)
	d, okD := digits(s, 8, 2)
	if !okY || !okM || !okD || s[4] != '-' || s[7] != '-' {
		return errors.New("not yyyy-mm-dd")
	}
	if m < 1 || m > 12 {
		return errors.New("month out of range")
	}
	days := [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m-1]
	if m == 2 && y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		days = 29
	}
	if d < 1 || d > days {
		return errors.New("day out of range")
	}
	return nil
}

// checkTime accepts hh:mm:ss[.frac](Z|±hh:mm).
func checkTime(s string) error {
	h, okH := digits(s, 0, 2)
	m, okM := digits(s, 3, 2)
	sec, okS := digits(s, 6, 2)
	if !okH || !okM || !okS || s[2] != ':' || s[5] != ':' {
		return errors.New("not hh:mm:ss")
	}
	if h > 23 || m > 59 || sec > 60 {
		return errors.New("hour/min/sec out of range")
	}
	rest := s[8:]
	if len(rest) > 0 && rest[0] == '.' {
		n := 1
		for n < len(rest) && isDigit(rest[n]) {
			n++
		}
		if n == 1 {
			return errors.New("no digits in second fraction")
		}
		rest = rest[n:]
	}
	if rest != "Z" && rest != "z" {
		if len(rest) != 6 || (rest[0] != '+' && rest[0] != '-') || rest[3] != ':' {
			return errors.New("offset is not Z or ±hh:mm")
		}
		oh, okH := digits(rest, 1, 2)
		om, okM := digits(rest, 4, 2)
		if !okH || !okM || oh > 23 || om > 59 {
			return errors.New("offset hour/min out of range")
		}
		// Back to UTC: local = UTC + offset.
		off := oh*60 + om
		if rest[0] == '+' {
			off = -off
		}
		hm := (h*60 + m + off + 24*60) % (24 * 60)
		h, m = hm/60, hm%60
	}
	if sec == 60 && (h != 23 || m != 59) {
		return errors.New("invalid leap second")
	}
	return nil
}

// digits reads the n ASCII digits of s at i as a number.
func digits(s string, i, n int) (int, bool) {
	if i+n > len(s) {
		return 0, false
	}
	v := 0
	for _, c := range []byte(s[i : i+n]) {
		if !isDigit(c) {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}
