"""Word pools the synthetic scholarly graph draws names from (written for this project)."""

from __future__ import annotations

ADJECTIVES = (
    "Adaptive", "Scalable", "Incremental", "Probabilistic", "Lightweight", "Robust", "Explainable",
    "Federated", "Automated", "Hierarchical", "Distributed", "Model-Driven", "Data-Driven", "Secure",
    "Energy-Aware", "Context-Aware", "Interactive", "Continuous", "Search-Based", "Privacy-Preserving",
    "Self-Healing", "Fine-Grained", "Cost-Effective", "Runtime", "Formal", "Empirical", "Bayesian",
    "Graph-Based", "Neural", "Hybrid", "Declarative", "Modular", "Resilient", "Zero-Shot",
)
TECHNIQUES = (
    "Anomaly Detection", "Test Generation", "Program Repair", "Architecture Recovery",
    "Performance Prediction", "Code Summarisation", "Defect Prediction", "Log Analysis",
    "Traceability Recovery", "Requirements Classification", "Service Placement", "Load Balancing",
    "Configuration Tuning", "Change Impact Analysis", "Clone Detection", "Fault Localisation",
    "Model Checking", "Schema Matching", "Query Optimisation", "Entity Resolution",
    "Knowledge Graph Completion", "Link Prediction", "Resource Scheduling", "Vulnerability Detection",
    "Dependency Analysis", "Refactoring Recommendation", "Workflow Mining", "Capacity Planning",
    "Intent Recognition", "Data Cleaning", "Access Control", "Consistency Checking",
)
OBJECTS = (
    "Microservices", "Edge Devices", "Mobile Apps", "Cloud Workloads", "Smart Contracts",
    "Data Pipelines", "Embedded Controllers", "Web APIs", "Scientific Workflows", "Spreadsheets",
    "Container Clusters", "Legacy Systems", "Robotic Software", "Game Engines", "Compilers",
    "Serverless Functions", "Database Systems", "Sensor Networks", "Open-Source Projects",
    "Digital Twins", "Chatbots", "Automotive Software", "Medical Devices", "Build Systems",
)
SETTINGS = (
    "Industrial Practice", "Continuous Integration", "Safety-Critical Domains", "Large Codebases",
    "Resource-Constrained Environments", "Multi-Tenant Platforms", "Agile Teams", "Open Science",
    "Regulated Industries", "Student Projects", "Production Systems", "Research Software",
    "Heterogeneous Hardware", "Evolving Requirements", "Real-Time Constraints", "Crowdsourced Data",
)

FIRST_NAMES = (
    "Lena", "Jonas", "Sanne", "Giulia", "Paolo", "Rosa", "Oliver", "Harriet", "Mei", "Arjun", "Fatima",
    "Tomasz", "Ingrid", "Kwame", "Lucia", "Mateo", "Noor", "Elif", "Hiroshi", "Amara", "Bastian",
    "Chiara", "Dmitri", "Esther", "Farid", "Greta", "Hugo", "Ines", "Jakub", "Katarina", "Lars",
    "Maren", "Nikolai", "Olga", "Pedro", "Quentin", "Rania", "Stefan", "Tanvi", "Ulla", "Viktor",
    "Wen", "Ximena", "Yusuf", "Zofia", "Aiko", "Bruno", "Carmen", "Diego", "Emma", "Felix", "Hana",
    "Ivo", "Julia", "Kenji", "Leila", "Marco", "Nadia", "Oskar", "Priya", "Rafael", "Sofia", "Theo",
)
LAST_NAMES = (
    "Hoffmeier", "Brettschneider", "de Vries", "Marchetti", "Ferrandi", "Bellini", "Pennington",
    "Ashdown", "Zhang", "Sharma", "Haddad", "Kowalski", "Lindqvist", "Mensah", "Romero", "Alvarez",
    "Rahman", "Yilmaz", "Tanaka", "Okafor", "Vogel", "Russo", "Ivanov", "Cohen", "Karimi", "Berg",
    "Laurent", "Costa", "Novak", "Horvat", "Nilsson", "Jensen", "Petrov", "Sokolova", "Silva",
    "Moreau", "Nasser", "Keller", "Iyer", "Virtanen", "Popescu", "Li", "Castillo", "Demir",
    "Wojcik", "Sato", "Almeida", "Garcia", "Weber", "Fischer", "Suzuki", "Hosseini", "Rossi",
    "Dubois", "Kaur", "Schmidt", "Gonzalez", "Nowak", "Andersen", "Mueller", "Ortiz", "Yamamoto",
    "Fernandes", "Lehmann", "Bianchi", "Kovacs", "Lambert", "Murphy", "OBrien", "Ng", "Chen",
)
INITIALS = "ABCDEFGHJKLMNPRSTVW"

ORG_KINDS = ("University of", "Institute of Technology", "Research Centre", "Polytechnic of")
CITIES = (
    "Karlsruhe", "Delft", "Milan", "Leeds", "Oslo", "Porto", "Gdansk", "Accra", "Kyoto", "Pune",
    "Haifa", "Tartu", "Ghent", "Lyon", "Graz", "Aarhus", "Bergen", "Turin", "Leuven", "Brno",
    "Seville", "Tampere", "Cluj", "Izmir", "Sendai", "Valencia", "Linz", "Uppsala", "Basel", "Bremen",
)
COUNTRIES = {
    "Karlsruhe": "Germany", "Delft": "Netherlands", "Milan": "Italy", "Leeds": "United Kingdom",
    "Oslo": "Norway", "Porto": "Portugal", "Gdansk": "Poland", "Accra": "Ghana", "Kyoto": "Japan",
    "Pune": "India", "Haifa": "Israel", "Tartu": "Estonia", "Ghent": "Belgium", "Lyon": "France",
    "Graz": "Austria", "Aarhus": "Denmark", "Bergen": "Norway", "Turin": "Italy", "Leuven": "Belgium",
    "Brno": "Czechia", "Seville": "Spain", "Tampere": "Finland", "Cluj": "Romania", "Izmir": "Turkey",
    "Sendai": "Japan", "Valencia": "Spain", "Linz": "Austria", "Uppsala": "Sweden", "Basel": "Switzerland",
    "Bremen": "Germany",
}

VENUE_TOPICS = (
    "Software Architecture", "Software Engineering", "Data Engineering", "Knowledge Graphs",
    "Cloud Computing", "Program Analysis", "Requirements Engineering", "Software Testing",
    "Mining Software Repositories", "Distributed Systems", "Information Systems", "Web Engineering",
    "Automated Software Engineering", "Empirical Software Engineering", "Database Systems",
    "Machine Learning for Systems", "Dependable Systems", "Software Maintenance and Evolution",
)
VENUE_KINDS = ("International Conference on", "Symposium on", "Workshop on", "Journal of", "Transactions on")
PUBLISHERS = ("ACM", "IEEE", "Springer", "Elsevier", "USENIX", "LIPIcs")

FIELDS = (
    "Software Architecture", "Software Testing", "Requirements Engineering", "Data Management",
    "Knowledge Representation", "Distributed Computing", "Programming Languages", "Human-Computer Interaction",
    "Information Retrieval", "Computer Security", "Machine Learning", "Embedded Systems",
)
METHODS = (
    "Case study", "Controlled experiment", "Survey", "Benchmark evaluation", "Simulation",
    "Formal proof", "Interview study", "Action research", "Grounded theory", "Ablation study",
    "Mining software repositories", "User study", "Design science", "Systematic literature review",
)
METRICS = ("F1 score", "precision", "recall", "accuracy", "latency in ms", "throughput per second",
           "mean absolute error", "speed-up factor", "memory in MB", "AUC")
DOMAINS = ("open-source Java", "industrial C++", "Python notebooks", "web services", "mobile apps",
           "automotive ECUs", "cloud traces", "scientific software", "student code", "SQL workloads")
KEYWORDS = (
    "microservices", "technical debt", "large language models", "graph neural networks", "fuzzing",
    "static analysis", "observability", "DevOps", "self-adaptive systems", "digital twins",
    "explainability", "energy efficiency", "code review", "continuous deployment", "benchmarking",
    "reproducibility", "model-driven engineering", "blockchain", "serverless", "edge computing",
)
