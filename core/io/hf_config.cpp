#include "io/hf_config.hpp"

#include <algorithm>
#include <exception>

#include "common/error.hpp"
#include "io/hf_families.hpp"
#include "io/json_parse.hpp"
#include "io/json_reader.hpp"
#include "io/result_json.hpp"
#include "io/scenario_json.hpp"
#include "model/params.hpp"
#include "version.hpp"

namespace envelope {

namespace hf {

const std::vector<Family>& families() {
    static const std::vector<Family> all = {
        {"llama", "LlamaForCausalLM", read_llama},
        {"mistral", "MistralForCausalLM", read_mistral},
        {"qwen2", "Qwen2ForCausalLM", read_qwen2},
        {"qwen3", "Qwen3ForCausalLM", read_qwen3},
        {"mixtral", "MixtralForCausalLM", read_mixtral},
        {"qwen2_moe", "Qwen2MoeForCausalLM", read_qwen2_moe},
        {"qwen3_moe", "Qwen3MoeForCausalLM", read_qwen3_moe},
        {"llama4_text", "Llama4ForCausalLM", read_llama4_text},
        {"deepseek_v2", "DeepseekV2ForCausalLM", read_deepseek},
        {"deepseek_v3", "DeepseekV3ForCausalLM", read_deepseek},
        {"gpt2", "GPT2LMHeadModel", read_gpt2},
        {"gpt_neox", "GPTNeoXForCausalLM", read_gpt_neox},
        {"opt", "OPTForCausalLM", read_opt},
        {"falcon", "FalconForCausalLM", read_falcon},
        {"RefinedWeb", "RWForCausalLM", read_refined_web},
        {"RefinedWebModel", "RWForCausalLM", read_refined_web_model},
        {"mamba", "MambaForCausalLM", read_mamba},
        {"mamba2", "Mamba2ForCausalLM", read_mamba2},
        {"jamba", "JambaForCausalLM", read_jamba},
        {"gemma2", "Gemma2ForCausalLM", read_gemma2},
        {"gemma3_text", "Gemma3ForCausalLM", read_gemma3},
        {"gemma3", "Gemma3ForConditionalGeneration", read_gemma3},  // its text_config
    };
    return all;
}

}  // namespace hf

namespace {

using hf::Family;

// The first entry of an "architectures" array, or "".
std::string first_architecture(const Json& obj, const std::string& prefix) {
    const auto it = obj.find("architectures");
    if (it == obj.end() || it->is_null()) return "";
    const std::string path = prefix.empty() ? "architectures" : prefix + ".architectures";
    if (!it->is_array() || (!it->empty() && !(*it)[0].is_string())) {
        throw InputError(path, "must be an array of class names, like [\"LlamaForCausalLM\"]");
    }
    return it->empty() ? "" : (*it)[0].get<std::string>();
}

std::string supported(bool by_architecture) {
    std::string list;
    for (const Family& f : hf::families()) {
        const std::string name = by_architecture ? f.architecture : f.model_type;
        if (list.find(name) == std::string::npos) list += (list.empty() ? "" : ", ") + name;
    }
    return list;
}

// The family of a config: its model_type, else its architectures entry.
const Family& family_of(HfFields& f, const std::string& model_type, const std::string& architecture,
                        const std::string& architecture_path) {
    if (!model_type.empty()) {
        for (const Family& fam : hf::families()) {
            if (model_type == fam.model_type) return fam;
        }
        throw InputError(f.path("model_type"), "\"" + model_type + "\" is not supported yet (supported: " +
                                                   supported(false) + ")");
    }
    if (architecture.empty()) {
        throw InputError(f.path("model_type"), "is required (or architectures): it says which family of model this is");
    }
    for (const Family& fam : hf::families()) {
        if (architecture == fam.architecture) return fam;
    }
    throw InputError(architecture_path, "\"" + architecture + "\" is not supported yet (supported: " +
                                            supported(true) + ")");
}

// _name_or_path: a hub id ("meta-llama/Llama-3.1-8B") is kept whole; a local folder
// ("/models/llama/", "./") gives its last component, or nothing.
std::string name_from_path(std::string path) {
    while (!path.empty() && (path.back() == '/' || path.back() == '\\')) path.pop_back();
    const bool local = path.empty() || path[0] == '/' || path[0] == '.' || path[0] == '~' ||
                       path.find('\\') != std::string::npos || path.find(':') != std::string::npos ||
                       std::count(path.begin(), path.end(), '/') > 1;
    if (!local) return path;
    const std::size_t slash = path.find_last_of("/\\");
    const std::string last = slash == std::string::npos ? path : path.substr(slash + 1);
    return last == "." || last == ".." ? "" : last;
}

// A hub id names its page, where the config came from.
std::string source_of(const std::string& path, const std::string& model_type) {
    const std::string id = name_from_path(path);
    if (!id.empty() && id == path && std::count(id.begin(), id.end(), '/') == 1 && id.find(' ') == std::string::npos) {
        return "https://huggingface.co/" + id + "/blob/main/config.json (imported by envelope import-hf)";
    }
    return "a Hugging Face config.json (model_type " + model_type + "), imported by envelope import-hf";
}

// Keys no reader looked at: Envelope does not know what they do.
void note_unread(const HfFields& f, hf::Notes& notes) {
    const std::vector<std::string> keys = f.unread();
    if (keys.empty()) return;
    constexpr std::size_t kShown = 20;
    std::string list;
    for (std::size_t i = 0; i < keys.size() && i < kShown; ++i) list += (i ? ", " : "") + keys[i].substr(0, 80);
    if (keys.size() > kShown) list += ", and " + std::to_string(keys.size() - kShown) + " more";
    notes.push_back("not read (unknown to the importer; check that none changes the model's shape): " + list);
}

}  // namespace

HfImport import_hf_config(std::string_view text, const std::string& name) {
    const Json root = parse_json_text(text, kScenarioLimits);
    if (!root.is_object()) {
        throw InputError("", std::string("must be a config.json object, got ") + json_type_name(root));
    }
    // A multimodal config keeps its language model under text_config.
    const auto text_config = root.find("text_config");
    const bool nested = text_config != root.end() && !text_config->is_null();
    HfFields f(nested ? *text_config : root, nested ? "text_config" : "");

    std::string model_type = f.text("model_type");
    const std::string root_type = root.contains("model_type") && root["model_type"].is_string()
                                      ? root["model_type"].get<std::string>() : "";
    // Llama 4's text part calls itself llama4_text; an older copy may leave it out.
    if (model_type.empty() && nested && root_type == "llama4") model_type = "llama4_text";
    const std::string architecture = first_architecture(nested ? *text_config : root, nested ? "text_config" : "");
    const std::string architecture_path = f.path("architectures") + "[0]";
    const Family& family = family_of(f, model_type, architecture, architecture_path);

    HfImport out;
    if (nested) {
        out.notes.push_back("the language model of a multimodal config (text_config) was imported; the other parts "
                            "(vision encoder, projector) are left out");
    }
    Model m = family.read(f, out.notes);
    f.ignore({"_name_or_path", "architectures", "model_type"});
    note_unread(f, out.notes);

    const std::string name_or_path =
        root.contains("_name_or_path") && root["_name_or_path"].is_string() ? root["_name_or_path"].get<std::string>() : "";
    const std::string root_architecture = first_architecture(root, "");
    m.name = !name.empty()                           ? name
             : !name_from_path(name_or_path).empty() ? name_from_path(name_or_path)
             : !root_architecture.empty()            ? root_architecture
             : !architecture.empty()                 ? architecture
                                                     : family.model_type;
    m.source = source_of(name_or_path, family.model_type);

    out.document = to_json(m);
    std::string joined = "Imported from a Hugging Face config.json";
    for (std::size_t i = 0; i < out.notes.size(); ++i) joined += (i ? "; " : ": ") + out.notes[i];
    joined += ".";
    out.document["notes"] = joined;
    // The schema's own reader is the last word: what passes here passes as a preset would.
    try {
        out.model = parse_model(out.document, "model");
    } catch (const InputError& e) {
        throw InputError("", "the imported model is outside the model schema (" + e.path() + ": " + e.what() + ")");
    }
    return out;
}


}  // namespace envelope
