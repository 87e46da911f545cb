//go:build !noasm && !gccgo && !safe

package lbfgs

// axpyDot sets d += alpha·v and returns w·d (see axpyDotGo), in SSE2.
func axpyDot(d []float64, alpha float64, v, w []float64) float64 {
	n := len(d)
	return axpyDotSSE2(d, alpha, v[:n], w[:n])
}

//go:noescape
func axpyDotSSE2(d []float64, alpha float64, v, w []float64) float64

// newPair is newPairGo in SSE2.
func newPair(s, y, dir, x, xp, g, gp []float64) (sy, yy, sg float64) {
	n := len(x)
	return newPairSSE2(s[:n], y[:n], dir[:n], x, xp[:n], g[:n], gp[:n])
}

// lastPass is lastPassGo in SSE2.
func lastPass(d []float64, alpha float64, v, g, xt, x []float64) (proj float64, moved bool) {
	n := len(d)
	return lastPassSSE2(d, alpha, v[:n], g[:n], xt[:n], x[:n])
}

//go:noescape
func newPairSSE2(s, y, dir, x, xp, g, gp []float64) (sy, yy, sg float64)

//go:noescape
func lastPassSSE2(d []float64, alpha float64, v, g, xt, x []float64) (proj float64, moved bool)

// The Go versions below compute each dot product as gonum's DotUnitary
// does on amd64 (four partial sums by index mod 4, the tail added to the first,
// then (s0+s2)+(s1+s3)), and each update as its AxpyUnitary (α·v + d,
// rounded in that order), so that the fused passes give gonum's numbers.
// The float64 conversions forbid fused multiply-adds.

// newPairGo sets s = x − xp, y = g − gp, dir = g and returns s·y, y·y
// and s·g.
func newPairGo(s, y, dir, x, xp, g, gp []float64) (sy, yy, sg float64) {
	n := len(x)
	s, y, dir, xp, g, gp = s[:n], y[:n], dir[:n], xp[:n], g[:n], gp[:n]
	var sy0, sy1, sy2, sy3, yy0, yy1, yy2, yy3, sg0, sg1, sg2, sg3 float64
	j := 0
	for ; j+4 <= n; j += 4 {
		s0, s1, s2, s3 := x[j]-xp[j], x[j+1]-xp[j+1], x[j+2]-xp[j+2], x[j+3]-xp[j+3]
		y0, y1, y2, y3 := g[j]-gp[j], g[j+1]-gp[j+1], g[j+2]-gp[j+2], g[j+3]-gp[j+3]
		s[j], s[j+1], s[j+2], s[j+3] = s0, s1, s2, s3
		y[j], y[j+1], y[j+2], y[j+3] = y0, y1, y2, y3
		dir[j], dir[j+1], dir[j+2], dir[j+3] = g[j], g[j+1], g[j+2], g[j+3]
		sy0 += float64(s0 * y0)
		sy1 += float64(s1 * y1)
		sy2 += float64(s2 * y2)
		sy3 += float64(s3 * y3)
		yy0 += float64(y0 * y0)
		yy1 += float64(y1 * y1)
		yy2 += float64(y2 * y2)
		yy3 += float64(y3 * y3)
		sg0 += float64(s0 * g[j])
		sg1 += float64(s1 * g[j+1])
		sg2 += float64(s2 * g[j+2])
		sg3 += float64(s3 * g[j+3])
	}
	for ; j < n; j++ {
		sj, yj := x[j]-xp[j], g[j]-gp[j]
		s[j], y[j], dir[j] = sj, yj, g[j]
		sy0 += float64(sj * yj)
		yy0 += float64(yj * yj)
		sg0 += float64(sj * g[j])
	}
	return (sy0 + sy2) + (sy1 + sy3), (yy0 + yy2) + (yy1 + yy3), (sg0 + sg2) + (sg1 + sg3)
}

// axpyDotGo sets d += alpha·v and returns w·d.
func axpyDotGo(d []float64, alpha float64, v, w []float64) float64 {
	n := len(d)
	v, w = v[:n], w[:n]
	var s0, s1, s2, s3 float64
	j := 0
	for ; j+4 <= n; j += 4 {
		d0 := float64(alpha*v[j]) + d[j]
		d1 := float64(alpha*v[j+1]) + d[j+1]
		d2 := float64(alpha*v[j+2]) + d[j+2]
		d3 := float64(alpha*v[j+3]) + d[j+3]
		d[j], d[j+1], d[j+2], d[j+3] = d0, d1, d2, d3
		s0 += float64(w[j] * d0)
		s1 += float64(w[j+1] * d1)
		s2 += float64(w[j+2] * d2)
		s3 += float64(w[j+3] * d3)
	}
	for ; j < n; j++ {
		dj := float64(alpha*v[j]) + d[j]
		d[j] = dj
		s0 += float64(w[j] * dj)
	}
	return (s0 + s2) + (s1 + s3)
}

// axpyScaleDot sets d = gamma·(d + alpha·v), then adds +0 if canon, and
// returns w·d. It has no assembly version: it runs once per iteration.
func axpyScaleDot(d []float64, alpha float64, v []float64, gamma float64, canon bool, w []float64) float64 {
	n := len(d)
	v, w = v[:n], w[:n]
	var zero float64 // +0, added where canon
	var s0, s1, s2, s3 float64
	j := 0
	for ; j+4 <= n; j += 4 {
		d0 := gamma * (float64(alpha*v[j]) + d[j])
		d1 := gamma * (float64(alpha*v[j+1]) + d[j+1])
		d2 := gamma * (float64(alpha*v[j+2]) + d[j+2])
		d3 := gamma * (float64(alpha*v[j+3]) + d[j+3])
		if canon {
			d0, d1, d2, d3 = d0+zero, d1+zero, d2+zero, d3+zero
		}
		d[j], d[j+1], d[j+2], d[j+3] = d0, d1, d2, d3
		s0 += float64(w[j] * d0)
		s1 += float64(w[j+1] * d1)
		s2 += float64(w[j+2] * d2)
		s3 += float64(w[j+3] * d3)
	}
	for ; j < n; j++ {
		dj := gamma * (float64(alpha*v[j]) + d[j])
		if canon {
			dj += zero
		}
		d[j] = dj
		s0 += float64(w[j] * dj)
	}
	return (s0 + s2) + (s1 + s3)
}

// lastPassGo ends the second loop and starts the line search at step 1: it
// sets d = −(d + alpha·v) and xt = d + x, and returns g·d and whether xt
// differs from x.
func lastPassGo(d []float64, alpha float64, v, g, xt, x []float64) (proj float64, moved bool) {
	n := len(d)
	v, g, xt, x = v[:n], g[:n], xt[:n], x[:n]
	var s0, s1, s2, s3 float64
	j := 0
	for ; j+4 <= n; j += 4 {
		d0 := -(float64(alpha*v[j]) + d[j])
		d1 := -(float64(alpha*v[j+1]) + d[j+1])
		d2 := -(float64(alpha*v[j+2]) + d[j+2])
		d3 := -(float64(alpha*v[j+3]) + d[j+3])
		d[j], d[j+1], d[j+2], d[j+3] = d0, d1, d2, d3
		s0 += float64(g[j] * d0)
		s1 += float64(g[j+1] * d1)
		s2 += float64(g[j+2] * d2)
		s3 += float64(g[j+3] * d3)
		t0, t1, t2, t3 := d0+x[j], d1+x[j+1], d2+x[j+2], d3+x[j+3]
		xt[j], xt[j+1], xt[j+2], xt[j+3] = t0, t1, t2, t3
		moved = moved || t0 != x[j] || t1 != x[j+1] || t2 != x[j+2] || t3 != x[j+3]
	}
	for ; j < n; j++ {
		dj := -(float64(alpha*v[j]) + d[j])
		d[j] = dj
		s0 += float64(g[j] * dj)
		xt[j] = dj + x[j]
		moved = moved || xt[j] != x[j]
	}
	return (s0 + s2) + (s1 + s3), moved
}
