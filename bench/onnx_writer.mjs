// A minimal protobuf encoder for the few ONNX messages the benchmark needs, so the ORT model is
// written by the benchmark itself (no onnx/protobuf package). Field numbers follow onnx.proto.

// ---- protobuf wire format -------------------------------------------------------------------
// Wire types: 0 = varint, 2 = length-delimited, 5 = 32-bit. Every field is key = (field << 3) | type.

/** Growable byte sink; messages are built bottom-up, so a child is encoded before its parent. */
class Writer {
  constructor() { this.chunks = []; this.length = 0; }
  bytes(u8) { this.chunks.push(u8); this.length += u8.length; return this; }
  varint(value) {
    // BigInt keeps int64 fields (dims, ir_version) exact and encodes negatives (e.g. -1 in a
    // Reshape shape) as the 10-byte two's complement that protobuf's int64 requires.
    let v = BigInt.asUintN(64, BigInt(value));
    const out = [];
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v !== 0n) byte |= 0x80;
      out.push(byte);
    } while (v !== 0n);
    return this.bytes(Uint8Array.from(out));
  }
  key(field, wireType) { return this.varint((field << 3) | wireType); }
  finish() {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const c of this.chunks) { out.set(c, at); at += c.length; }
    return out;
  }
}

const utf8 = new TextEncoder();

// Field writers; each skips undefined so callers can pass optional fields freely.
function int(w, field, value) { if (value !== undefined) w.key(field, 0).varint(value); }
function lenDelimited(w, field, u8) { w.key(field, 2).varint(u8.length).bytes(u8); }
function str(w, field, s) { if (s !== undefined) lenDelimited(w, field, utf8.encode(s)); }
function msg(w, field, u8) { if (u8 !== undefined) lenDelimited(w, field, u8); }
function float32(w, field, x) {
  if (x === undefined) return;
  const b = new Uint8Array(4);
  new DataView(b.buffer).setFloat32(0, x, true);
  w.key(field, 5).bytes(b);
}
/** Packed repeated int64 (proto3 default for repeated scalars). */
function packedInts(w, field, values) {
  if (!values || values.length === 0) return;
  const inner = new Writer();
  for (const v of values) inner.varint(v);
  lenDelimited(w, field, inner.finish());
}

// ---- ONNX messages ----------------------------------------------------------------------------

/** TensorProto.DataType values used here. */
export const DataType = Object.freeze({ FLOAT: 1, INT64: 7 });

/**
 * TensorProto: dims=1, data_type=2, name=8, raw_data=9 (little-endian bytes, the compact form).
 * @param {string} name
 * @param {number[]} dims
 * @param {Float32Array|BigInt64Array} data
 */
export function tensor(name, dims, data) {
  const w = new Writer();
  packedInts(w, 1, dims);
  let dataType;
  if (data instanceof Float32Array) dataType = DataType.FLOAT;
  else if (data instanceof BigInt64Array) dataType = DataType.INT64;
  else throw new TypeError(`tensor ${name}: need Float32Array or BigInt64Array`);
  int(w, 2, dataType);
  str(w, 8, name);
  // Typed arrays are little-endian on every platform Node and browsers run on, as ONNX requires.
  msg(w, 9, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  return w.finish();
}

/**
 * ValueInfoProto for a float tensor of fixed shape: name=1, type=2 -> TypeProto.tensor_type=1 ->
 * {elem_type=1, shape=2 -> TensorShapeProto.dim=1 -> Dimension.dim_value=1}.
 */
export function floatValueInfo(name, shape) {
  const shapeW = new Writer();
  for (const d of shape) {
    const dimW = new Writer();
    int(dimW, 1, d);
    msg(shapeW, 1, dimW.finish());
  }
  const tensorTypeW = new Writer();
  int(tensorTypeW, 1, DataType.FLOAT);
  msg(tensorTypeW, 2, shapeW.finish());
  const typeW = new Writer();
  msg(typeW, 1, tensorTypeW.finish());
  const w = new Writer();
  str(w, 1, name);
  msg(w, 2, typeW.finish());
  return w.finish();
}

/** AttributeProto.AttributeType values used here. */
const AttrType = Object.freeze({ FLOAT: 1, INT: 2, INTS: 7 });

/**
 * AttributeProto: name=1, f=2, i=3, ints=8, type=20. The value's JS type picks the kind:
 * number -> INT (integers only), {float: x} -> FLOAT, number[] -> INTS.
 */
function attribute(name, value) {
  const w = new Writer();
  str(w, 1, name);
  if (Array.isArray(value)) {
    packedInts(w, 8, value);
    int(w, 20, AttrType.INTS);
  } else if (typeof value === 'object' && 'float' in value) {
    float32(w, 2, value.float);
    int(w, 20, AttrType.FLOAT);
  } else if (Number.isInteger(value)) {
    int(w, 3, value);
    int(w, 20, AttrType.INT);
  } else {
    throw new TypeError(`attribute ${name}: unsupported value ${value}`);
  }
  return w.finish();
}

/** NodeProto: input=1, output=2, name=3, op_type=4, attribute=5. */
export function node(opType, inputs, outputs, attrs = {}, name = undefined) {
  const w = new Writer();
  for (const i of inputs) str(w, 1, i);
  for (const o of outputs) str(w, 2, o);
  str(w, 3, name ?? `${opType}_${outputs[0]}`);
  str(w, 4, opType);
  for (const [k, v] of Object.entries(attrs)) msg(w, 5, attribute(k, v));
  return w.finish();
}

/** GraphProto: node=1, name=2, initializer=5, input=11, output=12 (all pre-encoded bytes). */
export function graph({ name, nodes, initializers, inputs, outputs }) {
  const w = new Writer();
  for (const n of nodes) msg(w, 1, n);
  str(w, 2, name);
  for (const t of initializers) msg(w, 5, t);
  for (const i of inputs) msg(w, 11, i);
  for (const o of outputs) msg(w, 12, o);
  return w.finish();
}

/**
 * ModelProto: ir_version=1, producer_name=2, graph=7, opset_import=8 -> OperatorSetIdProto
 * {domain=1 ("" = the default ai.onnx domain), version=2}.
 */
export function model({ graphBytes, opset = 17, irVersion = 8, producer = 'attention-playground-bench' }) {
  const opsetW = new Writer();
  str(opsetW, 1, '');
  int(opsetW, 2, opset);
  const w = new Writer();
  int(w, 1, irVersion);
  str(w, 2, producer);
  msg(w, 7, graphBytes);
  msg(w, 8, opsetW.finish());
  return w.finish();
}
