package board

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
)

const (
	// MaxDetailN is the largest board that pictures draw square by square;
	// larger ones are drawn as queen density per pixel.
	MaxDetailN = 1000
	// MaxLabelN is the largest board whose pictures carry row and column
	// numbers.
	MaxLabelN = 26
	// densityPixels bounds the side of a density picture.
	densityPixels = 1024
)

var (
	lightSquare = color.RGBA{0xf0, 0xd9, 0xb5, 0xff}
	darkSquare  = color.RGBA{0xb5, 0x88, 0x63, 0xff}
	queenColor  = color.RGBA{0x1b, 0x1b, 0x1b, 0xff}
	blockColor  = color.RGBA{0x8c, 0x8c, 0x8c, 0xff}
	labelColor  = color.RGBA{0x44, 0x44, 0x44, 0xff}
	white       = color.RGBA{0xff, 0xff, 0xff, 0xff}
)

// crown is the queen's outline in a 100×100 cell, and crownBase the bar
// under it.
var crown = [][2]float64{{15, 78}, {9, 30}, {30, 54}, {35, 18}, {50, 48}, {65, 18}, {70, 54}, {91, 30}, {85, 78}}

const crownPath = "M15 78L9 30L30 54L35 18L50 48L65 18L70 54L91 30L85 78Z M15 83H85V92H15Z"

// layout is the geometry of a detailed picture of rows × cols squares:
// cell side and the margin that holds the coordinates.
type layout struct{ rows, cols, cell, margin int }

func layoutFor(rows, cols int) layout {
	long := max(rows, cols)
	cell := max(1, min(48, 640/long))
	margin := 0
	if long <= MaxLabelN {
		margin = max(18, cell/2+8)
	}
	return layout{rows, cols, cell, margin}
}

// width and height are the picture's size in pixels.
func (l layout) width() int  { return l.cols*l.cell + 2*l.margin }
func (l layout) height() int { return l.rows*l.cell + 2*l.margin }

// detailed reports whether a board is drawn square by square, not as
// density.
func detailed(c Columns) bool { return max(c.N(), ColsOf(c)) <= MaxDetailN }

func writeSVG(w *bufio.Writer, c Columns, blocked []Square) error {
	n, cols := c.N(), ColsOf(c)
	if !detailed(c) {
		img, block, err := density(c)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			return err
		}
		wd, ht := img.Bounds().Dx(), img.Bounds().Dy()
		fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`+"\n", wd, ht, wd, ht)
		fmt.Fprintf(w, "<title>%d queens, drawn as density: one pixel is %d×%d squares</title>\n", n, block, block)
		fmt.Fprintf(w, `<image width="%d" height="%d" style="image-rendering:pixelated" href="data:image/png;base64,%s"/>`+"\n", wd, ht, base64.StdEncoding.EncodeToString(buf.Bytes()))
		_, err = w.WriteString("</svg>\n")
		return err
	}
	l := layoutFor(n, cols)
	wd, ht, cs, m := l.width(), l.height(), l.cell, l.margin
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`+"\n", wd, ht, wd, ht)
	fmt.Fprintf(w, "<title>%d×%d board, %d queens</title>\n", n, cols, queensOf(c))
	fmt.Fprintf(w, `<defs><pattern id="squares" width="%d" height="%d" patternUnits="userSpaceOnUse">`, 2*cs, 2*cs)
	fmt.Fprintf(w, `<rect width="%d" height="%d" fill="%s"/><rect x="%d" width="%d" height="%d" fill="%s"/><rect y="%d" width="%d" height="%d" fill="%s"/></pattern>`,
		2*cs, 2*cs, hex(lightSquare), cs, cs, cs, hex(darkSquare), cs, cs, cs, hex(darkSquare))
	fmt.Fprintf(w, `<symbol id="queen" viewBox="0 0 100 100"><path d="%s" fill="%s" stroke="%s" stroke-width="4"/></symbol></defs>`+"\n", crownPath, hex(queenColor), hex(white))
	if m > 0 {
		fmt.Fprintf(w, `<rect width="%d" height="%d" fill="%s"/>`+"\n", wd, ht, hex(white))
		fs := max(10, min(16, cs/2))
		fmt.Fprintf(w, `<g font-family="sans-serif" font-size="%d" fill="%s" text-anchor="middle" dominant-baseline="central">`+"\n", fs, hex(labelColor))
		// Column numbers along the top, row numbers down the left.
		for i := range max(n, cols) {
			mid := m + i*cs + cs/2
			if i < cols {
				fmt.Fprintf(w, `<text x="%d" y="%d">%d</text>`, mid, m/2, i+1)
			}
			if i < n {
				fmt.Fprintf(w, `<text x="%d" y="%d">%d</text>`, m/2, mid, i+1)
			}
			w.WriteString("\n")
		}
		w.WriteString("</g>\n")
	}
	fmt.Fprintf(w, `<g transform="translate(%d %d)"><rect width="%d" height="%d" fill="url(#squares)"/>`+"\n", m, m, cols*cs, n*cs)
	for _, b := range blocked {
		if err := failed(w); err != nil {
			return err
		}
		x, y := b.Col*cs, b.Row*cs
		fmt.Fprintf(w, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/><path d="M%d %dl%d %dM%d %dl%d %d" stroke="%s" stroke-width="%d"/>`+"\n",
			x, y, cs, cs, hex(blockColor), x, y, cs, cs, x+cs, y, -cs, cs, hex(white), max(1, cs/12))
	}
	err := writeRows(w, c, func(dst []byte, r, col int) []byte {
		if col == Empty {
			return dst
		}
		return fmt.Appendf(dst, `<use href="#queen" x="%d" y="%d" width="%d" height="%d"/>`+"\n", col*cs, r*cs, cs, cs)
	})
	if err != nil {
		return err
	}
	_, err = w.WriteString("</g>\n</svg>\n")
	return err
}

func hex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

func queensOf(c Columns) int {
	k := 0
	for r := range c.N() {
		if c.Col(r) != Empty {
			k++
		}
	}
	return k
}

func writePNG(w *bufio.Writer, c Columns, blocked []Square) error {
	var img image.Image
	if !detailed(c) {
		g, _, err := density(c)
		if err != nil {
			return err
		}
		img = g
	} else {
		rgba, err := drawBoard(c, blocked)
		if err != nil {
			return err
		}
		img = rgba
	}
	return (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(w, img)
}

// drawBoard paints a detailed board: squares, blocked squares, queens, and
// coordinates for small boards.
func drawBoard(c Columns, blocked []Square) (*image.RGBA, error) {
	n, cols := c.N(), ColsOf(c)
	l := layoutFor(n, cols)
	wd, ht, cs, m := l.width(), l.height(), l.cell, l.margin
	img := image.NewRGBA(image.Rect(0, 0, wd, ht))
	fill(img, image.Rect(0, 0, wd, ht), white)
	for r := range n {
		for k := range cols {
			sq := lightSquare
			if (r+k)%2 == 1 {
				sq = darkSquare
			}
			fill(img, image.Rect(m+k*cs, m+r*cs, m+(k+1)*cs, m+(r+1)*cs), sq)
		}
	}
	for _, b := range blocked {
		x0, y0 := m+b.Col*cs, m+b.Row*cs
		fill(img, image.Rect(x0, y0, x0+cs, y0+cs), blockColor)
		for i := range cs {
			img.SetRGBA(x0+i, y0+i, white)
			img.SetRGBA(x0+cs-1-i, y0+i, white)
		}
	}
	for r := range n {
		col, err := column(c, r)
		if err != nil {
			return nil, err
		}
		if col != Empty {
			drawQueen(img, m+col*cs, m+r*cs, cs)
		}
	}
	if m > 0 {
		scale := max(1, min(3, (m-6)/6))
		for i := range max(n, cols) {
			mid := m + i*cs + cs/2
			if i < cols {
				drawNumber(img, mid, m/2, i+1, scale)
			}
			if i < n {
				drawNumber(img, m/2, mid, i+1, scale)
			}
		}
	}
	return img, nil
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

// drawQueen paints the crown in the cell at (x0, y0), or fills the cell
// when it is too small for a shape.
func drawQueen(img *image.RGBA, x0, y0, cs int) {
	if cs < 6 {
		fill(img, image.Rect(x0, y0, x0+cs, y0+cs), queenColor)
		return
	}
	for y := range cs {
		for x := range cs {
			px, py := (float64(x)+0.5)*100/float64(cs), (float64(y)+0.5)*100/float64(cs)
			if inPolygon(px, py, crown) || (px >= 15 && px <= 85 && py >= 83 && py <= 92) {
				img.SetRGBA(x0+x, y0+y, queenColor)
			}
		}
	}
}

// inPolygon is the even-odd rule.
func inPolygon(x, y float64, poly [][2]float64) bool {
	in := false
	for i, j := 0, len(poly)-1; i < len(poly); j, i = i, i+1 {
		xi, yi, xj, yj := poly[i][0], poly[i][1], poly[j][0], poly[j][1]
		if (yi > y) != (yj > y) && x < (xj-xi)*(y-yi)/(yj-yi)+xi {
			in = !in
		}
	}
	return in
}

// digits is a 3×5 pixel font for the coordinates of PNG boards.
var digits = [10]string{
	"111101101101111", "010110010010111", "111001111100111", "111001111001111", "101101111001001",
	"111100111001111", "111100111101111", "111001001001001", "111101111101111", "111101111001111",
}

// drawNumber paints v centred on (cx, cy).
func drawNumber(img *image.RGBA, cx, cy, v, scale int) {
	s := fmt.Sprint(v)
	w := (4*len(s) - 1) * scale
	x := cx - w/2
	y := cy - 5*scale/2
	for _, ch := range s {
		glyph := digits[ch-'0']
		for i := range 15 {
			if glyph[i] == '1' {
				gx, gy := x+(i%3)*scale, y+(i/3)*scale
				fill(img, image.Rect(gx, gy, gx+scale, gy+scale), labelColor)
			}
		}
		x += 4 * scale
	}
}

// density draws a huge board at most densityPixels wide and high: each
// pixel is a block×block group of squares, darker the more queens it
// holds (on a log scale, so that a lone queen still shows). Cost O(n)
// time, O(pixels) memory.
func density(c Columns) (*image.Gray, int, error) {
	n, cols := c.N(), ColsOf(c)
	block := (max(n, cols) + densityPixels - 1) / densityPixels
	side, high := (cols+block-1)/block, (n+block-1)/block
	counts := make([]uint32, side*high)
	var most uint32
	for r := range n {
		col, err := column(c, r)
		if err != nil {
			return nil, 0, err
		}
		if col == Empty {
			continue
		}
		i := (r/block)*side + col/block
		counts[i]++
		most = max(most, counts[i])
	}
	img := image.NewGray(image.Rect(0, 0, side, high))
	scale := math.Log1p(float64(most))
	for i, k := range counts {
		v := uint8(255)
		if k > 0 {
			v = uint8(200 - 200*math.Log1p(float64(k))/scale)
		}
		img.Pix[i] = v
	}
	return img, block, nil
}
