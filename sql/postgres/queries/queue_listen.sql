-- Be told of new questions (kgqa.submit NOTIFYs kgqa_queue with the id).
LISTEN kgqa_queue;
