package informer

// ringGrowing is an unbounded FIFO on a ring buffer that doubles when full.
// It is not safe for concurrent use; its owner locks.
//
// Mirrors k8s.io/utils/buffer.RingGrowing.
type ringGrowing[T any] struct {
	// data holds the elements; its length is a power of two times the
	// initial size.
	data []T
	// beg is the index of the oldest element.
	beg int
	// readable is the number of elements, from data[beg] on, wrapping.
	readable int
}

func newRingGrowing[T any](initialSize int) *ringGrowing[T] {
	return &ringGrowing[T]{data: make([]T, max(initialSize, 1))}
}

// Len returns the number of elements.
func (r *ringGrowing[T]) Len() int { return r.readable }

// ReadOne removes and returns the oldest element; ok is false if there is
// none.
func (r *ringGrowing[T]) ReadOne() (data T, ok bool) {
	if r.readable == 0 {
		return data, false
	}
	data = r.data[r.beg]
	var zero T
	r.data[r.beg] = zero // drop the reference for the GC
	r.beg = (r.beg + 1) % len(r.data)
	r.readable--
	return data, true
}

// WriteOne appends an element, growing the buffer if it is full.
func (r *ringGrowing[T]) WriteOne(data T) {
	if r.readable == len(r.data) {
		grown := make([]T, 2*len(r.data))
		// Copy in order: the tail from beg, then the wrapped head.
		n := copy(grown, r.data[r.beg:])
		copy(grown[n:], r.data[:r.beg])
		r.data, r.beg = grown, 0
	}
	r.data[(r.beg+r.readable)%len(r.data)] = data
	r.readable++
}
