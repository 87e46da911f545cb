package mst

// Span kinds of Eisner's chart, indexing Workspace.span and .split.
const (
	compRight = iota // complete span s..t headed at s
	compLeft         // complete span s..t headed at t
	incRight         // incomplete span with the arc s → t
	incLeft          // incomplete span with the arc t → s
)

// eisner writes into heads the best projective tree of the m-node graph
// whose arc h → d scores table[h*m+d] (absent = −Inf forbids the arc) and
// reports whether one exists. It is Eisner's (1996) first-order dynamic
// program over complete and incomplete spans, O(m³) time and O(m²) space,
// with the root at position 0 at the left of the sentence. With singleRoot
// the root's incomplete spans may only be built from the empty span at 0, so
// it gets exactly one child.
//
// Ties: every span takes its smallest best split point, and the tree is
// read off these splits.
func eisner(table []float64, m int, singleRoot bool, heads []int, ws *Workspace) bool {
	var sp [4][]float64
	var bp [4][]int32
	for k := range sp {
		sp[k] = grow(&ws.span[k], m*m)
		bp[k] = grow(&ws.split[k], m*m)
	}
	for s := range m {
		sp[compRight][s*m+s], sp[compLeft][s*m+s] = 0, 0
	}
	for width := 1; width < m; width++ {
		for s := 0; s+width < m; s++ {
			t := s + width
			i := s*m + t
			// Incomplete spans: two facing complete spans plus the arc.
			hi := t
			if s == 0 && singleRoot {
				hi = s + 1
			}
			best, br := absent, int32(s)
			for r := s; r < hi; r++ {
				if v := sp[compRight][s*m+r] + sp[compLeft][(r+1)*m+t]; v > best {
					best, br = v, int32(r)
				}
			}
			sp[incRight][i], bp[incRight][i] = best+table[s*m+t], br
			if s == 0 {
				sp[incLeft][i], bp[incLeft][i] = absent, br // the root has no head
			} else {
				sp[incLeft][i], bp[incLeft][i] = best+table[t*m+s], br
			}
			// Complete spans: an incomplete span and a complete one beyond.
			best, br = absent, int32(s)
			for r := s; r < t; r++ {
				if v := sp[compLeft][s*m+r] + sp[incLeft][r*m+t]; v > best {
					best, br = v, int32(r)
				}
			}
			sp[compLeft][i], bp[compLeft][i] = best, br
			best, br = absent, int32(t)
			for r := s + 1; r <= t; r++ {
				if v := sp[incRight][s*m+r] + sp[compRight][r*m+t]; v > best {
					best, br = v, int32(r)
				}
			}
			sp[compRight][i], bp[compRight][i] = best, br
		}
	}
	if sp[compRight][m-1] == absent {
		return false
	}
	heads[0] = -1
	ws.stack = append(ws.stack[:0], compRight, 0, int32(m-1))
	for len(ws.stack) > 0 {
		top := len(ws.stack) - 3
		kind, s, t := ws.stack[top], ws.stack[top+1], ws.stack[top+2]
		ws.stack = ws.stack[:top]
		if s == t {
			continue
		}
		r := bp[kind][int(s)*m+int(t)]
		switch kind {
		case compRight:
			ws.stack = append(ws.stack, incRight, s, r, compRight, r, t)
		case compLeft:
			ws.stack = append(ws.stack, compLeft, s, r, incLeft, r, t)
		case incRight, incLeft:
			if kind == incRight {
				heads[t] = int(s)
			} else {
				heads[s] = int(t)
			}
			ws.stack = append(ws.stack, compRight, s, r, compLeft, r+1, t)
		}
	}
	return true
}
