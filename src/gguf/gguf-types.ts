/**
 * The type codes of GGUF: metadata value types (gguf_type) and tensor types (ggml_type), with
 * the sizes llama.cpp's gguf.cpp reads them with. The tensor table is ggml's type traits for
 * the llama.cpp the engine is built from (v0.5.0 via node-llama-cpp 3.22.1): retired codes
 * (4, 5, 31-33, 36-38) have no entry, so a file using one is refused as llama.cpp refuses it.
 */

/** Metadata value type codes. */
export const GGUF_TYPE = {
  uint8: 0,
  int8: 1,
  uint16: 2,
  int16: 3,
  uint32: 4,
  int32: 5,
  float32: 6,
  bool: 7,
  string: 8,
  array: 9,
  uint64: 10,
  int64: 11,
  float64: 12,
} as const;

const TYPE_NAMES = new Map<number, string>(Object.entries(GGUF_TYPE).map(([name, code]) => [code, name]));

/** The name of a metadata value type, or `type N` for an unknown one. */
export function ggufTypeName(code: number): string {
  return TYPE_NAMES.get(code) ?? `type ${code}`;
}

/** Bytes of one scalar of each fixed-size metadata type. */
export const GGUF_SCALAR_BYTES: ReadonlyMap<number, number> = new Map([
  [GGUF_TYPE.uint8, 1],
  [GGUF_TYPE.int8, 1],
  [GGUF_TYPE.uint16, 2],
  [GGUF_TYPE.int16, 2],
  [GGUF_TYPE.uint32, 4],
  [GGUF_TYPE.int32, 4],
  [GGUF_TYPE.float32, 4],
  [GGUF_TYPE.bool, 1],
  [GGUF_TYPE.uint64, 8],
  [GGUF_TYPE.int64, 8],
  [GGUF_TYPE.float64, 8],
]);

/** A tensor type: its name, values per block and bytes per block. */
export interface GgmlType {
  readonly name: string;
  readonly blockSize: number;
  readonly typeSize: number;
}

const ggml = (name: string, blockSize: number, typeSize: number): GgmlType => ({ name, blockSize, typeSize });

/** ggml's tensor types by code. */
export const GGML_TYPES: ReadonlyMap<number, GgmlType> = new Map([
  [0, ggml('F32', 1, 4)],
  [1, ggml('F16', 1, 2)],
  [2, ggml('Q4_0', 32, 18)],
  [3, ggml('Q4_1', 32, 20)],
  [6, ggml('Q5_0', 32, 22)],
  [7, ggml('Q5_1', 32, 24)],
  [8, ggml('Q8_0', 32, 34)],
  [9, ggml('Q8_1', 32, 36)],
  [10, ggml('Q2_K', 256, 84)],
  [11, ggml('Q3_K', 256, 110)],
  [12, ggml('Q4_K', 256, 144)],
  [13, ggml('Q5_K', 256, 176)],
  [14, ggml('Q6_K', 256, 210)],
  [15, ggml('Q8_K', 256, 292)],
  [16, ggml('IQ2_XXS', 256, 66)],
  [17, ggml('IQ2_XS', 256, 74)],
  [18, ggml('IQ3_XXS', 256, 98)],
  [19, ggml('IQ1_S', 256, 50)],
  [20, ggml('IQ4_NL', 32, 18)],
  [21, ggml('IQ3_S', 256, 110)],
  [22, ggml('IQ2_S', 256, 82)],
  [23, ggml('IQ4_XS', 256, 136)],
  [24, ggml('I8', 1, 1)],
  [25, ggml('I16', 1, 2)],
  [26, ggml('I32', 1, 4)],
  [27, ggml('I64', 1, 8)],
  [28, ggml('F64', 1, 8)],
  [29, ggml('IQ1_M', 256, 56)],
  [30, ggml('BF16', 1, 2)],
  [34, ggml('TQ1_0', 256, 54)],
  [35, ggml('TQ2_0', 256, 66)],
  [39, ggml('MXFP4', 32, 17)],
  [40, ggml('NVFP4', 64, 36)],
  [41, ggml('Q1_0', 128, 18)],
  [42, ggml('Q2_0', 64, 18)],
]);
