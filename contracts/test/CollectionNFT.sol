// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";

/// @title ERC-721 collection whose name, symbol, totalSupply and contractURI tests set freely (hostile values, lies).
/// @dev Anyone may mint: ids follow one another from 1. `airdrop` mints one id to each address in one transaction.
contract CollectionNFT is ERC721 {
    /// @notice ERC-7572: the contract-level metadata changed.
    event ContractURIUpdated();

    string private _name;
    string private _symbol;
    string private _contractUri;
    uint256 private _minted;
    uint256 private _burned;
    uint256 private _supplySkew;
    bool private _locked;

    constructor(string memory name_, string memory symbol_, string memory contractUri_) ERC721("", "") {
        _name = name_;
        _symbol = symbol_;
        _contractUri = contractUri_;
    }

    function name() public view override returns (string memory) {
        return _name;
    }

    function symbol() public view override returns (string memory) {
        return _symbol;
    }

    /// @notice Tokens in existence, plus the skew a test set (a dishonest supply).
    function totalSupply() external view returns (uint256) {
        return _minted - _burned + _supplySkew;
    }

    /// @notice ERC-7572 contract-level metadata URI.
    function contractURI() external view returns (string memory) {
        return _contractUri;
    }

    /// @notice Replaces the contract-level metadata URI and says so (ERC-7572).
    function setContractURI(string calldata uri) external {
        _contractUri = uri;
        emit ContractURIUpdated();
    }

    /// @notice Replaces the contract-level metadata URI without saying so (a cache that trusts the event keeps the old one).
    function replaceContractURIQuietly(string calldata uri) external {
        _contractUri = uri;
    }

    /// @notice Makes totalSupply() answer `skew` more than the tokens in existence.
    function setSupplySkew(uint256 skew) external {
        _supplySkew = skew;
    }

    /// @notice Mints `count` next ids to `to`.
    function mint(address to, uint256 count) external {
        for (uint256 i; i < count; ++i) {
            _mint(to, ++_minted);
        }
    }

    /// @notice Mints one next id to each of `to`, in one transaction.
    function airdrop(address[] calldata to) external {
        for (uint256 i; i < to.length; ++i) {
            _mint(to[i], ++_minted);
        }
    }

    /// @notice Locks transfers (a honeypot: what was received cannot be moved; mints still work).
    function setLocked(bool locked) external {
        _locked = locked;
    }

    function _update(address to, uint256 tokenId, address auth) internal override returns (address) {
        address from = _ownerOf(tokenId);
        require(!_locked || from == address(0), "locked");
        return super._update(to, tokenId, auth);
    }

    /// @notice Burns `id` (its owner or an approved operator).
    function burn(uint256 id) external {
        _update(address(0), id, msg.sender);
        ++_burned;
    }
}
