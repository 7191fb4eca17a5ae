// The host page's iframe resizer: step 3.
