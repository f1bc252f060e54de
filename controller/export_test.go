package controller

import "context"

// Sync runs c's sync of key once, outside any worker, for tests.
func (c *ConditionController) Sync(ctx context.Context, key string) error { return c.sync(ctx, key) }

// ShutDown shuts c's queue down, for tests that never Run it.
func (c *ConditionController) ShutDown() { c.queue.ShutDown() }

// Remembered reports how many CRDs c remembers an input for.
func (c *ConditionController) Remembered() int {
	c.lastSeenMu.Lock()
	defer c.lastSeenMu.Unlock()
	return len(c.lastSeen)
}
