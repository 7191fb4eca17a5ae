// "Share or embed this view": filled in step 4. For now, nothing.
export function mountShare() {}
