// The compute side's worker pool (engine/pool.js), for configs whose `workers` is 2 or more: at most one
// pool at a time (a new size stops the old one), warmed before its first real pass, and per owner the
// pool layer that holds the owner's layer's weights (runForward's `pooled`). Used by handlers.js.

/**
 * startPool({ workers, simd }): a promise of a worker pool, or null where none can run (every pass then
 * runs on the engine here); simd(): whether the engine runs the SIMD module (the pool loads the same).
 * Returns { poolOf(workers), pooledFor(mine, workers), closePools(), has(workers), size }.
 */
export function createPools(startPool, simd) {
  const pools = new Map(); // workers → promise of a pool of that many workers (at most one)

  /**
   * A new pool's workers run a few split passes before its first real one (as compute_side.js's peak() does): V8
   * optimises wasm code once it is hot, so the first run's time is the kernels', not the compiler's.
   */
  async function warm(pool) {
    try {
      const layer = await pool.layer({ d_model: 128, n_heads: 4, seed: 1 });
      const query = new Float32Array(256 * 128).fill(0.25); // 67 MFLOP a pass: above the split threshold
      const until = performance.now() + 150;
      for (let k = 0; k < 10 && performance.now() < until; k++) await layer.forward({ query, n_q: 256, need_weights: true });
      layer.delete();
      return pool;
    } catch (err) {
      await pool.close(); // a pool that cannot run is not kept (the next run starts a new one)
      throw err;
    }
  }

  /**
   * The pool of `workers` workers, or null for one. One pool at a time: a new size stops the pool of the
   * old one (its layers go with it; an owner's next pass makes its layer in the new pool). A pool that
   * failed to start is tried again next time.
   */
  function poolOf(workers) {
    if (!startPool || !(workers >= 2)) return null;
    if (!pools.has(workers)) {
      closePools();
      const started = startPool({ workers, simd: simd() }).then(warm);
      pools.set(workers, started);
      started.catch(() => pools.delete(workers));
    }
    return pools.get(workers);
  }

  async function closePools() {
    const all = [...pools.values()];
    pools.clear();
    await Promise.all(all.map((p) => p.then((pool) => pool.close()).catch(() => {})));
  }

  /**
   * runForward's `pooled` for an owner and a config: a pool layer holding the owner's layer's weights,
   * made again when the layer changes (its LayerCache key) or the pool does; null for one worker.
   */
  async function pooledFor(mine, workers) {
    const pending = poolOf(workers);
    if (!pending) return null;
    const pool = await pending;
    return {
      splitFlops: pool.splitFlops,
      async layer(mha, key) {
        if (mine.pooled?.pool === pool && mine.pooled.key === key) return mine.pooled.layer;
        mine.pooled?.layer.delete();
        mine.pooled = null;
        const { d_model, n_heads, n_kv_heads, d_k, d_v, bias } = mha; // the layer reports the n_kv_heads it resolved
        const layer = await pool.layer({ d_model, n_heads, n_kv_heads, d_k, d_v, bias });
        await layer.setWeights(mha.getWeights());
        await layer.sendWeights(); // now, so the first pass's time is the pass's
        mine.pooled = { pool, key, layer };
        return layer;
      },
    };
  }

  return { poolOf, pooledFor, closePools, has: (workers) => pools.has(workers), get size() { return pools.size; } };
}
