#include "pipeline/pass_list.h"

#include <map>
#include <set>

namespace ptoplug::host {
namespace {

bool isIdentStart(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool isIdentChar(char c) { return isIdentStart(c) || (c >= '0' && c <= '9'); }
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n'; }

const char* kSyntax =
    "write PASS,PASS{key=value key='a value'}, e.g. --passes 'MaterializeDistTensorCtx,"
    "RenameFunctions{pattern=chip_(.*) replacement=c_$1}'";

Error at(size_t column, std::string message, std::string hint = kSyntax) {
    Error e = fileError("--passes", std::move(message), std::move(hint));
    e.line = 1;
    e.column = static_cast<int64_t>(column) + 1;
    return e;
}

class Parser {
public:
    explicit Parser(std::string_view text) : text_(text) {}

    Expected<std::vector<ListedPass>> list() {
        std::vector<ListedPass> passes;
        for (;;) {
            skipSpaces();
            auto pass = listed();
            if (!pass) return pass.error();
            passes.push_back(std::move(*pass));
            skipSpaces();
            if (at_ == text_.size()) return passes;
            if (text_[at_] != ',')
                return at(at_, "expected ',' between passes, found '" + std::string(1, text_[at_]) + "'");
            ++at_;
        }
    }

private:
    Expected<ListedPass> listed() {
        ListedPass pass;
        pass.column = at_;
        pass.name = ident();
        if (pass.name.empty())
            return at(at_, at_ == text_.size() ? "expected a pass name at the end" : "expected a pass name");
        skipSpaces();
        if (at_ == text_.size() || text_[at_] != '{') return pass;
        ++at_;
        for (;;) {
            skipSpaces();
            if (at_ == text_.size()) return at(at_, "the options of " + pass.name + " are not closed with '}'");
            if (text_[at_] == '}') {
                ++at_;
                return pass;
            }
            ListedPass::Setting setting;
            setting.column = at_;
            setting.key = ident();
            if (setting.key.empty()) return at(at_, "expected an option name of " + pass.name);
            skipSpaces();
            if (at_ == text_.size() || text_[at_] != '=')
                return at(at_, "expected '=' after option " + setting.key + " of " + pass.name);
            ++at_;
            skipSpaces();
            auto value = this->value();
            if (!value) return value.error();
            setting.value = std::move(*value);
            pass.settings.push_back(std::move(setting));
        }
    }

    Expected<std::string> value() {
        if (at_ < text_.size() && (text_[at_] == '\'' || text_[at_] == '"')) {
            const char quote = text_[at_];
            const size_t open = at_++;
            const size_t close = text_.find(quote, at_);
            if (close == std::string_view::npos) return at(open, "a quoted value is not closed");
            std::string v(text_.substr(at_, close - at_));
            at_ = close + 1;
            return v;
        }
        const size_t start = at_;
        while (at_ < text_.size() && !isSpace(text_[at_]) && text_[at_] != '}' && text_[at_] != ',' &&
               text_[at_] != '{' && text_[at_] != '=')
            ++at_;
        if (at_ == start) return at(at_, "expected a value (quote an empty one: '')");
        return std::string(text_.substr(start, at_ - start));
    }

    std::string ident() {
        const size_t start = at_;
        if (at_ < text_.size() && isIdentStart(text_[at_]))
            while (at_ < text_.size() && isIdentChar(text_[at_])) ++at_;
        return std::string(text_.substr(start, at_ - start));
    }

    void skipSpaces() {
        while (at_ < text_.size() && isSpace(text_[at_])) ++at_;
    }

    std::string_view text_;
    size_t at_ = 0;
};

}  // namespace

Expected<std::vector<ListedPass>> parsePassList(std::string_view text) { return Parser(text).list(); }

Status restrictToPassList(Pipeline& pipeline, std::string_view text) {
    auto listed = parsePassList(text);
    if (!listed) return listed.error();
    std::string known;
    for (const Stage& s : pipeline.stages)
        if (s.pass) known += (known.empty() ? "" : ", ") + s.name;
    const std::string knownHint =
        known.empty() ? "load a plugin that provides it (--plugin)" : "the loaded plugins' passes are: " + known;
    // What holds before each stage of the pipeline the list replaces: the input of the list is taken to be
    // the program where its first pass is placed.
    std::vector<std::set<std::string>> holding;
    std::set<std::string> available;
    for (const Stage& s : pipeline.stages) {
        holding.push_back(available);
        applyProperties(available, s);
    }
    std::vector<Stage> stages;
    std::string start;  // the default stage the list starts at
    for (const ListedPass& l : *listed) {
        size_t index = pipeline.stages.size();
        for (size_t i = 0; i < pipeline.stages.size(); ++i)
            if (pipeline.stages[i].pass && pipeline.stages[i].name == l.name) index = i;
        if (index == pipeline.stages.size()) {
            bool stub = false;
            for (const Stage& s : pipeline.stages) stub = stub || s.name == l.name;
            return at(l.column,
                      stub ? l.name + " is a stage of pypto's pipeline that no loaded plugin provides"
                           : "no loaded plugin has a pass named " + l.name,
                      knownHint);
        }
        if (stages.empty()) {
            available = holding[index];
            start = pipeline.stages[index].name;
        }
        Stage stage = pipeline.stages[index];
        for (const ListedPass::Setting& s : l.settings) {
            const std::string setting = l.name + "." + s.key + "=" + s.value;
            const OptionOrigin origin{OptionOrigin::Kind::PassList, "", "", setting};
            if (Status err = setOption(*stage.pass, stage.options, s.key, OptionInput{OptionInput::Kind::Text, s.value},
                                       origin)) {
                return at(s.column, err->message, err->hint);
            }
        }
        for (const std::string& r : stage.required)
            if (!available.count(r))
                return at(l.column,
                          l.name + " requires IR property " + r +
                              ", which neither the program where the list starts (as pypto's pipeline has it "
                              "before " +
                              start + ") nor an earlier pass of the list holds",
                          "put a pass that produces " + r + " before it, or start the list later in pypto's order");
        applyProperties(available, stage);
        stage.ssaForm = available.count("SSAForm") > 0;
        stages.push_back(std::move(stage));
    }
    std::map<std::string, int> seen;
    for (Stage& s : stages) s.occurrence = ++seen[s.name];
    pipeline.stages = std::move(stages);
    pipeline.passList = std::string(text);
    return std::nullopt;
}

}  // namespace ptoplug::host
