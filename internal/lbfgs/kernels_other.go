//go:build !amd64 || noasm || gccgo || safe

package lbfgs

// Where gonum runs its pure Go (internal/asm/f64 under these build tags),
// its DotUnitary sums in index order and its AxpyUnitary and ScalUnitary
// update element by element; the passes here do the same, and are written
// in the same form (no float64 conversions), so that a compiler that fuses
// multiply-adds fuses both alike.

// axpyDot sets d += alpha·v and returns w·d.
func axpyDot(d []float64, alpha float64, v, w []float64) (sum float64) {
	n := len(d)
	v, w = v[:n], w[:n]
	for j := range d {
		d[j] += alpha * v[j]
		sum += w[j] * d[j]
	}
	return sum
}

// axpyScaleDot sets d = gamma·(d + alpha·v), then adds +0 if canon, and
// returns w·d.
func axpyScaleDot(d []float64, alpha float64, v []float64, gamma float64, canon bool, w []float64) (sum float64) {
	n := len(d)
	v, w = v[:n], w[:n]
	var zero float64 // +0, added where canon
	for j := range d {
		d[j] += alpha * v[j]
		d[j] *= gamma
		if canon {
			d[j] += zero
		}
		sum += w[j] * d[j]
	}
	return sum
}

// newPair sets s = x − xp, y = g − gp, dir = g and returns s·y, y·y and
// s·g.
func newPair(s, y, dir, x, xp, g, gp []float64) (sy, yy, sg float64) {
	n := len(x)
	s, y, dir, xp, g, gp = s[:n], y[:n], dir[:n], xp[:n], g[:n], gp[:n]
	for j := range x {
		s[j], y[j], dir[j] = x[j]-xp[j], g[j]-gp[j], g[j]
		sy += y[j] * s[j]
		yy += y[j] * y[j]
		sg += g[j] * s[j]
	}
	return sy, yy, sg
}

// lastPass ends the second loop and starts the line search at step 1: it
// sets d = −(d + alpha·v) and xt = d + x, and returns g·d and whether xt
// differs from x.
func lastPass(d []float64, alpha float64, v, g, xt, x []float64) (proj float64, moved bool) {
	n := len(d)
	v, g, xt, x = v[:n], g[:n], xt[:n], x[:n]
	for j := range d {
		d[j] += alpha * v[j]
		d[j] = -d[j]
		proj += d[j] * g[j]
		xt[j] = d[j] + x[j]
		moved = moved || xt[j] != x[j]
	}
	return proj, moved
}
