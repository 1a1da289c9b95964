import usearch from 'usearch';

/**
 * The HNSW graph's settings (usearch): cosine metric, vectors quantised to int8 (a quarter of the
 * memory; candidates are re-scored from the float vectors, so quantisation only affects which
 * neighbours are found), 16 links per node, 128 candidates kept while building, 96 while searching
 * (more when more results are asked for).
 */
export function graphConfig(dimensions: number): ConstructorParameters<typeof usearch.Index>[0] {
  return {
    dimensions,
    metric: usearch.MetricKind.Cos,
    quantization: usearch.ScalarKind.I8,
    connectivity: 16,
    expansion_add: 128,
    expansion_search: 96,
    multi: false,
  };
}

export type Graph = InstanceType<typeof usearch.Index>;

export function newGraph(dimensions: number): Graph {
  return new usearch.Index(graphConfig(dimensions));
}

export function loadGraph(file: string, dimensions: number): Graph {
  const graph = newGraph(dimensions);
  graph.load(file);
  return graph;
}
