-- Log one answer.
-- params: question, answer, sources, triples, hubs, retriever, strategy, mode, topic_entity,
--         components, timings, llm_tokens, result (jsonb as text), query_vectors vector[], index_name
-- returns: id
INSERT INTO kgqa.answers (question, answer, sources, triples, hubs, retriever, strategy, mode, topic_entity,
                          components, timings, llm_tokens, result, query_vectors, index_name)
VALUES (%(question)s::text, %(answer)s::text, %(sources)s::jsonb, %(triples)s::jsonb, %(hubs)s::jsonb,
        %(retriever)s::text, %(strategy)s::text, %(mode)s::text, %(topic_entity)s::text,
        %(components)s::jsonb, %(timings)s::jsonb, %(llm_tokens)s::jsonb, %(result)s::jsonb, %(query_vectors)s::vector[],
        %(index_name)s::text)
RETURNING id;
