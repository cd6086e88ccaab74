#!/usr/bin/env python3
"""Writes a small llama-architecture GGUF with random weights and the Qwen3 tokenizer.

Its answers are noise; what it is for is the real llama.cpp server around it: prefix reuse,
/props, error texts, SSE bytes. Run with llama.cpp's own gguf-py on PYTHONPATH:

    PYTHONPATH=<llama.cpp>/gguf-py python3 makeNoiseModel.py \
        --vocab <llama.cpp>/models/ggml-vocab-qwen2.gguf --out noise.gguf

The vocabulary file holds the Qwen2 byte-level BPE (the 151,643 merged tokens Qwen2.5 and
Qwen3 share) with padding after <|im_end|>; the added tokens Qwen3 declares in its
tokenizer.json (<tool_call>, <think>…) replace that padding, so prompts tokenise as a Qwen3
server tokenises them and the prefill bench's Qwen3 token counts compare one to one.
"""

import argparse
import sys

import numpy as np
from gguf import GGUFReader, GGUFWriter, GGMLQuantizationType, TokenType

# Qwen3's added tokens (tokenizer.json "added_tokens": id, content, special). Special ones are
# CONTROL tokens in GGUF, the others USER_DEFINED, as convert_hf_to_gguf.py writes them.
QWEN3_ADDED = [
    (151643, "<|endoftext|>", True), (151644, "<|im_start|>", True), (151645, "<|im_end|>", True),
    (151646, "<|object_ref_start|>", True), (151647, "<|object_ref_end|>", True),
    (151648, "<|box_start|>", True), (151649, "<|box_end|>", True),
    (151650, "<|quad_start|>", True), (151651, "<|quad_end|>", True),
    (151652, "<|vision_start|>", True), (151653, "<|vision_end|>", True),
    (151654, "<|vision_pad|>", True), (151655, "<|image_pad|>", True), (151656, "<|video_pad|>", True),
    (151657, "<tool_call>", False), (151658, "</tool_call>", False),
    (151659, "<|fim_prefix|>", False), (151660, "<|fim_middle|>", False),
    (151661, "<|fim_suffix|>", False), (151662, "<|fim_pad|>", False),
    (151663, "<|repo_name|>", False), (151664, "<|file_sep|>", False),
    (151665, "<tool_response>", False), (151666, "</tool_response>", False),
    (151667, "<think>", False), (151668, "</think>", False),
]
ENDOFTEXT, IM_END = 151643, 151645

# Small enough that a long prefill takes seconds on two cores; a trained window larger than
# the one the server runs (-c), as with the Qwen3-2507 models (262,144).
N_EMBD, N_HEAD, N_HEAD_KV, N_LAYER, N_FF = 64, 4, 2, 2, 192
N_CTX_TRAIN = 262_144


def read_vocab(path):
    reader = GGUFReader(path)
    fields = reader.fields
    tokens = list(fields["tokenizer.ggml.tokens"].contents())
    types = list(fields["tokenizer.ggml.token_type"].contents())
    merges = list(fields["tokenizer.ggml.merges"].contents())
    model = fields["tokenizer.ggml.model"].contents()
    pre = fields["tokenizer.ggml.pre"].contents()
    return tokens, types, merges, model, pre


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vocab", required=True, help="a models/ggml-vocab-qwen2.gguf file")
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", type=int, default=1234)
    args = parser.parse_args()

    tokens, types, merges, model, pre = read_vocab(args.vocab)
    if model != "gpt2" or pre != "qwen2":
        sys.exit(f"expected a Qwen2 BPE vocabulary, got model={model} pre={pre}")
    for token_id, content, special in QWEN3_ADDED:
        tokens[token_id] = content
        types[token_id] = int(TokenType.CONTROL if special else TokenType.USER_DEFINED)
    n_vocab = len(tokens)

    writer = GGUFWriter(args.out, "llama")
    writer.add_name("keel-noise-qwen3")
    writer.add_context_length(N_CTX_TRAIN)
    writer.add_embedding_length(N_EMBD)
    writer.add_block_count(N_LAYER)
    writer.add_feed_forward_length(N_FF)
    writer.add_head_count(N_HEAD)
    writer.add_head_count_kv(N_HEAD_KV)
    writer.add_rope_dimension_count(N_EMBD // N_HEAD)
    writer.add_rope_freq_base(1_000_000.0)
    writer.add_layer_norm_rms_eps(1e-6)
    writer.add_vocab_size(n_vocab)
    writer.add_file_type(1)  # mostly F16
    writer.add_tokenizer_model(model)
    writer.add_tokenizer_pre(pre)
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_token_merges(merges)
    writer.add_bos_token_id(ENDOFTEXT)
    writer.add_eos_token_id(IM_END)
    writer.add_pad_token_id(ENDOFTEXT)
    writer.add_add_bos_token(False)

    rng = np.random.default_rng(args.seed)

    def matrix(rows, cols):
        # numpy shape (rows, cols) is ggml's [cols, rows]: cols is the input dimension.
        return (rng.standard_normal((rows, cols)) * 0.02).astype(np.float16)

    head_dim = N_EMBD // N_HEAD
    # No output.weight: llama ties the output projection to the token embeddings.
    writer.add_tensor("token_embd.weight", matrix(n_vocab, N_EMBD))
    writer.add_tensor("output_norm.weight", np.ones(N_EMBD, dtype=np.float32))
    for layer in range(N_LAYER):
        prefix = f"blk.{layer}"
        writer.add_tensor(f"{prefix}.attn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        writer.add_tensor(f"{prefix}.attn_q.weight", matrix(N_HEAD * head_dim, N_EMBD))
        writer.add_tensor(f"{prefix}.attn_k.weight", matrix(N_HEAD_KV * head_dim, N_EMBD))
        writer.add_tensor(f"{prefix}.attn_v.weight", matrix(N_HEAD_KV * head_dim, N_EMBD))
        writer.add_tensor(f"{prefix}.attn_output.weight", matrix(N_EMBD, N_HEAD * head_dim))
        writer.add_tensor(f"{prefix}.ffn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        writer.add_tensor(f"{prefix}.ffn_gate.weight", matrix(N_FF, N_EMBD))
        writer.add_tensor(f"{prefix}.ffn_up.weight", matrix(N_FF, N_EMBD))
        writer.add_tensor(f"{prefix}.ffn_down.weight", matrix(N_EMBD, N_FF))

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    print(f"wrote {args.out}: llama, {N_LAYER} layers, n_embd {N_EMBD}, vocab {n_vocab}, n_ctx_train {N_CTX_TRAIN}")


if __name__ == "__main__":
    main()
