// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {CollectionNFT} from "./CollectionNFT.sol";

/// @title Creates CollectionNFTs from a contract: a factory-created collection, whose deployer no transaction names.
contract CollectionFactory {
    event Created(address collection);

    /// @notice Deploys a CollectionNFT with an empty contractURI and says where.
    function create(string calldata name_, string calldata symbol_) external returns (address collection) {
        collection = address(new CollectionNFT(name_, symbol_, ""));
        emit Created(collection);
    }
}
